"""What the access gate enforces: the key ring, whether keys are required, and the quotas.

The gate itself is HTTP middleware (app/http/access.py); which routes are open, keyed strictly
or admin-only is each route's own declaration (app/policy.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.access.keys import KeyRing
from app.access.quotas import ClientQuotas
from app.policy import RoutePolicy


@dataclass(frozen=True)
class AccessControl:
    """What the gate enforces: the key ring, whether keys are required, and the quotas."""

    keys: KeyRing
    quotas: ClientQuotas
    keys_required: bool = True
    precheck_requires_key: bool = False

    def key_needed(self, policy: RoutePolicy) -> bool:
        """True when a request to a route of this policy must carry a valid key."""
        if policy.open:
            return False
        if self.keys.enabled and self.keys_required:
            return True
        return self.precheck_requires_key and policy.strict_key
