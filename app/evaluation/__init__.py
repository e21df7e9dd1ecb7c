"""Plan evaluation suites run by `python -m app eval-plans`."""
