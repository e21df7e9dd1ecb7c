"""`python -m app eval-plans`: suites that run sentences through `/v1/plan` and check replies."""
