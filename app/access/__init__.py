"""Who may call railtrip and how much: API keys, per-client quotas, the caller's identity.

See README "Security" for what is protected and how to deploy behind a reverse proxy.
"""

from app.access.context import Caller, current_caller
from app.access.keys import ApiKey, KeyConfigError, KeyRing, hash_key, load_keys, presented_key
from app.access.middleware import AccessControl, AccessMiddleware
from app.access.quotas import ClientQuotas, QuotaLimits

__all__ = [
    "AccessControl",
    "AccessMiddleware",
    "ApiKey",
    "Caller",
    "ClientQuotas",
    "KeyConfigError",
    "KeyRing",
    "QuotaLimits",
    "current_caller",
    "hash_key",
    "load_keys",
    "presented_key",
]
