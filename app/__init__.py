"""railtrip: travel requests in plain language → itineraries from live train-ticket data."""

__version__ = "1.0.0"
