"""The use cases, one home each, called by every face: the HTTP routers and streams, the MCP
tools and the CLI. A face only translates (HTTP, MCP, argv) to a use case and its answer
back; validation happens here once, so every face refuses the same input the same way.

    queries.py    what a caller typed → validated values (a `ResolvedQuery`, a sale date)
    planning.py   a sentence or an intent → a plan reply; a chat turn with its session
    precheck.py   one train re-checked live before money moves
    tickets.py    offers between two places; the station search
    stops.py      a train's stop list
    health.py     readiness
"""
