"""Who may call railtrip and how much: API keys, per-client quotas, the caller's identity.

See README "Security" for what is protected and how to deploy behind a reverse proxy.
"""

from app.access.context import Caller, current_caller
from app.access.control import AccessControl
from app.access.keys import ApiKey, KeyConfigError, KeyRing, hash_key, load_keys, presented_key
from app.access.quotas import ClientQuotas, QuotaLimits

__all__ = [
    "AccessControl",
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
