"""railtrip: travel requests in plain language → itineraries from live train-ticket data."""

# The one version: the package metadata (pyproject reads it), the FastAPI app and OpenAPI, and
# the MCP server's `serverInfo` all report this.
__version__ = "1.0.0"
