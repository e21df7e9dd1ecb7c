"""How railtrip is watched: the metric catalogue (`metrics.py`), JSON logs (`logs.py`), optional
traces (`tracing.py`), answers counted by kind and freshness (`answers.py`), and the middleware
that applies them to every HTTP request (`requests.py`)."""
