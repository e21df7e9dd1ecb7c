"""The ticket query service: fan-out to sources, two cache tiers, honest freshness."""
