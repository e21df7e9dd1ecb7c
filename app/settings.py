"""Configuration from the environment (`RAILTRIP_` prefix, `.env` honoured).

Per-source settings use dynamic names (`RAILTRIP_<SOURCE>_RATE_PER_S`, with the source name
upper-cased and `-` as `_`), so they are read by `SourceSettings` with a per-source prefix.

`Settings()` is one validated snapshot, built once per process and passed down: every enabled
source's settings (environment, `.env` and `source_overrides` together) and every enabled
sandbox vendor's fault knobs (`RAILTRIP_SANDBOX_<VENDOR>_*`) are read and validated when it is
built, so a rate of -5 or an unknown override key refuses to start instead of reaching a
limiter. Nothing else reads the environment. A `RAILTRIP_*` variable no setting reads (a typo)
is kept with its closest known name (`unknown_variables`) for start-up to say, and
`describe()` is the effective configuration with secrets hidden (`serve --check-config`).
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import os
import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from dotenv import dotenv_values
from pydantic import Field, PrivateAttr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.redis_url import parse_redis_url
from sources.sandbox.faults import VENDOR_ONLY_KNOBS, VENDORS, FaultConfig

DOTENV = ".env"

KNOWN_SOURCES = ("rail12306", "juhe", "sandbox-12306", "sandbox-juhe")
SANDBOX_BASE_URLS = {
    "sandbox-12306": "http://sandbox-12306.internal",
    "sandbox-juhe": "http://sandbox-juhe.internal",
}
SANDBOX_VENDORS = {"sandbox-12306": "12306", "sandbox-juhe": "juhe"}
"""The in-process vendor each sandbox source is served by."""
DEFAULT_BASE_URLS = {
    "rail12306": "https://kyfw.12306.cn",
    "juhe": "https://apis.juhe.cn",
    **SANDBOX_BASE_URLS,
}
# Politeness the long-lived clients of the real sites settled on (the sandboxes keep the
# generic defaults); an environment variable still wins.
REAL_SITE_DEFAULTS: dict[str, dict[str, object]] = {
    "rail12306": {"rate_per_s": 1.0, "concurrency": 2, "timeout_s": 8.0},
    "juhe": {"rate_per_s": 1.0},
}
PLACEHOLDER_SECRETS = {"changeme", "your-api-key", "sk-xxx", "xxx", "placeholder"}


EnvFile = Path | str | None


def env_name(source: str) -> str:
    """`sandbox-12306` → `SANDBOX_12306` (the infix of its environment variables)."""
    return source.upper().replace("-", "_")


class SourceSettings(BaseSettings):
    """Limits and address of one ticket source; never shared between sources."""

    model_config = SettingsConfigDict(env_file=DOTENV, extra="ignore", frozen=True)

    base_url: str = ""
    concurrency: int = Field(default=5, ge=1, le=100)
    rate_per_s: float = Field(default=5.0, gt=0, le=1000)
    timeout_s: float = Field(default=3.0, gt=0, le=60)
    retries: int = Field(default=2, ge=0, le=10)
    api_key: str | None = None
    breaker_failures: int = Field(default=5, ge=1)
    breaker_cooldown_s: float = Field(default=30.0, gt=0)
    # A site that blocked us is left alone this long (never retried at once).
    block_cooldown_s: float = Field(default=300.0, gt=0)
    # Requests allowed to wait for this source beyond `concurrency`; None = sized from the
    # latency the source shows: as many as it answers within the query deadline
    # (app/tickets/admission.py). More are refused `overloaded`.
    queue_limit: int | None = Field(default=None, ge=0, le=100000)

    @classmethod
    def for_source(
        cls, name: str, env_file: EnvFile = DOTENV, **overrides: object
    ) -> SourceSettings:
        """Read `RAILTRIP_<NAME>_*` for one source with explicit overrides on top, validated
        together (an override is a field value like any other, never constructed around);
        a real site's politeness defaults fill what neither sets."""
        unknown = sorted(set(overrides) - set(cls.model_fields))
        if unknown:
            raise ValueError(f"unknown settings {unknown}; choose from {sorted(cls.model_fields)}")
        prefix = f"RAILTRIP_{env_name(name)}_"
        loaded = cls(_env_prefix=prefix, _env_file=env_file, **overrides)  # type: ignore[arg-type]
        defaults = {
            key: value
            for key, value in REAL_SITE_DEFAULTS.get(name, {}).items()
            if key not in loaded.model_fields_set
        }
        if defaults:
            loaded = cls(
                _env_prefix=prefix,
                _env_file=env_file,
                **(defaults | overrides),  # type: ignore[arg-type]
            )
        if not loaded.base_url:
            return loaded.model_copy(update={"base_url": DEFAULT_BASE_URLS.get(name, "")})
        return loaded


class FaultSettings(BaseSettings):
    """The fault knobs of one sandbox vendor, `RAILTRIP_SANDBOX_<VENDOR>_*` (what each does:
    sources/sandbox/faults.py); all 0 by default."""

    model_config = SettingsConfigDict(env_file=DOTENV, extra="ignore", frozen=True)

    latency_ms: float = Field(default=0.0, ge=0, le=60_000)
    error_rate: float = Field(default=0.0, ge=0, le=1)
    rate_limit_rate: float = Field(default=0.0, ge=0, le=1)
    malformed_rate: float = Field(default=0.0, ge=0, le=1)
    hang_rate: float = Field(default=0.0, ge=0, le=1)
    path_moved_rate: float = Field(default=0.0, ge=0, le=1)  # 12306 only
    path_bounce_rate: float = Field(default=0.0, ge=0, le=1)  # 12306 only
    lc_path_moved_rate: float = Field(default=0.0, ge=0, le=1)  # 12306 only
    transfer_error_rate: float = Field(default=0.0, ge=0, le=1)  # 12306 only
    page_error_rate: float = Field(default=0.0, ge=0, le=1)  # 12306 only
    odd_train_rate: float = Field(default=0.0, ge=0, le=1)  # juhe only

    @classmethod
    def for_vendor(cls, vendor: str, env_file: EnvFile = DOTENV) -> FaultSettings:
        """Read `RAILTRIP_SANDBOX_<VENDOR>_*`, checked by the vendor's own rules too."""
        prefix = f"RAILTRIP_SANDBOX_{vendor.upper()}_"
        loaded = cls(_env_prefix=prefix, _env_file=env_file)
        FaultConfig(vendor).update(**loaded.model_dump())  # raises on a knob the vendor has not
        return loaded


class Settings(BaseSettings):
    """Everything railtrip reads from its environment."""

    model_config = SettingsConfigDict(
        env_prefix="RAILTRIP_", env_file=DOTENV, extra="ignore", frozen=True
    )

    sources: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["sandbox-12306", "sandbox-juhe"]
    )
    source_overrides: dict[str, dict[str, object]] = Field(default_factory=dict)
    sandbox_admin: bool = True
    redis_url: str | None = None
    memory_ttl_s: float = Field(default=30.0, gt=0)
    memory_max_entries: int = Field(default=4096, ge=16)
    redis_ttl_s: float = Field(default=300.0, gt=0)
    stale_ttl_s: float = Field(default=1800.0, gt=0)
    refresh_after_s: float = Field(default=20.0, ge=0)
    query_deadline_s: float = Field(default=5.0, gt=0)
    stations_url: str | None = None
    # With rail12306 enabled (and no stations_url): where 12306's station list is cached,
    # and how long start-up may wait for it.
    stations_cache_path: str = ".cache/railtrip/station_name.js"
    stations_refresh_timeout_s: float = Field(default=5.0, gt=0, le=60)
    # ... and how often it is re-read while running (0: never); a failed re-read keeps the copy.
    stations_refresh_interval_s: float = Field(default=86_400.0, ge=0)
    session_ttl_s: float = Field(default=1800.0, gt=0)
    # Scale-out on Redis (README "Deployment"): fleet budget, fleet flight, stall bounds.
    expected_replicas: int = Field(default=1, ge=1, le=1000)
    redis_timeout_s: float = Field(default=0.1, gt=0, le=10)
    redis_max_connections: int = Field(default=64, ge=1, le=10_000)
    flight_lease_s: float = Field(default=2.0, gt=0, le=120)
    flight_poll_s: float = Field(default=0.05, gt=0, le=5)
    session_memory_max: int = Field(default=10_000, ge=16)
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str = "deepseek-chat"
    llm_timeout_s: float = Field(default=15.0, gt=0)
    agent_mode: Literal["state_machine", "llm_tools"] = "state_machine"
    agent_max_steps: int = Field(default=10, ge=1, le=50)
    log_level: str = "INFO"
    # -- access, quotas and overload (README "Security") ------------------------------------
    # `name:sha256hex[:admin]` entries; unset (with no keys file) = the API is open.
    api_keys: Annotated[list[str], NoDecode] = Field(default_factory=list)
    api_keys_file: str | None = None
    api_keys_required: bool = True  # False: keys are optional (a key gets its own quota)
    precheck_requires_key: bool = False
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Peers whose X-Forwarded-For / Forwarded headers are believed (addresses or CIDR
    # networks, app/http/forwarded.py); none by default: the peer address is the client.
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Per client (API key name, else client address); 0 = no limit.
    client_rate_per_s: float = Field(default=0.0, ge=0, le=10000)
    client_burst: int = Field(default=20, ge=1, le=10000)
    client_refresh_per_min: float = Field(default=0.0, ge=0, le=10000)
    client_llm_per_day: int = Field(default=200, ge=0)
    plan_deadline_s: float = Field(default=10.0, gt=0, le=120)
    llm_breaker_failures: int = Field(default=3, ge=1)
    llm_breaker_cooldown_s: float = Field(default=30.0, gt=0)
    # `python -m app serve`: open connections cap and how long a request may take to arrive.
    max_connections: int = Field(default=100, ge=1)
    # Server-Sent-Event streams open at once (app/http/streams.py); below max_connections, so
    # probes and ordinary requests keep room.
    max_streams: int = Field(default=32, ge=1)
    request_read_timeout_s: float = Field(default=10.0, gt=0)
    # MCP (`/mcp`): Host headers the Streamable HTTP transport accepts (DNS-rebinding guard).
    mcp_allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["127.0.0.1:*", "localhost:*"]
    )

    @field_validator("mcp_allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    # Optional OpenTelemetry traces (app/observability/tracing.py): an OTLP/HTTP traces URL.
    otel_endpoint: str | None = None
    otel_service: str = "railtrip"

    _env_file: EnvFile = PrivateAttr(default=None)
    _sources: dict[str, SourceSettings] = PrivateAttr(default_factory=dict)
    _faults: dict[str, FaultSettings] = PrivateAttr(default_factory=dict)
    _unknown: tuple[tuple[str, str | None], ...] = PrivateAttr(default=())

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        # The same `.env` (or none) for the per-source settings and the sandbox fault knobs.
        self._env_file = values.get("_env_file", self.model_config.get("env_file"))
        unknown = sorted(set(self.source_overrides) - set(KNOWN_SOURCES))
        if unknown:
            raise ValueError(f"source_overrides: unknown sources {unknown}")
        for name in self.sources:
            overrides = self.source_overrides.get(name, {})
            try:
                self._sources[name] = SourceSettings.for_source(name, self._env_file, **overrides)
            except (ValidationError, ValueError) as exc:
                raise ValueError(
                    f"settings of source {name!r} (RAILTRIP_{env_name(name)}_* or "
                    f"source_overrides[{name!r}]) are invalid: {exc}"
                ) from exc
        for name in self.sources:
            vendor = SANDBOX_VENDORS.get(name)
            if vendor is None:
                continue
            try:
                self._faults[vendor] = FaultSettings.for_vendor(vendor, self._env_file)
            except (ValidationError, ValueError) as exc:
                raise ValueError(
                    f"fault knobs of sandbox vendor {vendor} (RAILTRIP_SANDBOX_"
                    f"{vendor.upper()}_*) are invalid: {exc}"
                ) from exc
        self._unknown = _unknown_variables(self._env_file)

    @field_validator("sources", mode="before")
    @classmethod
    def _split_sources(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("api_keys", "cors_origins", "trusted_proxies", mode="before")
    @classmethod
    def _split_list(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("sources")
    @classmethod
    def _known_sources(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in KNOWN_SOURCES]
        if unknown:
            raise ValueError(f"unknown sources {unknown}; choose from {list(KNOWN_SOURCES)}")
        if not value:
            raise ValueError("at least one source must be enabled")
        return list(dict.fromkeys(value))

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_networks(cls, value: list[str]) -> list[str]:
        for entry in value:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError as exc:
                raise ValueError(
                    f"RAILTRIP_TRUSTED_PROXIES: {entry!r} is not an IP address or CIDR network"
                ) from exc
        return value

    @field_validator("max_streams")
    @classmethod
    def _streams_below_connections(cls, value: int, info: ValidationInfo) -> int:
        connections = info.data.get("max_connections")
        if connections is not None and value >= connections:
            raise ValueError(
                f"RAILTRIP_MAX_STREAMS ({value}) must stay below RAILTRIP_MAX_CONNECTIONS "
                f"({connections}): probes and ordinary requests need room"
            )
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url_form(cls, value: str | None) -> str | None:
        if value:
            parse_redis_url(value)  # RedisUrlError is a ValueError naming the problem
        return value or None

    @field_validator("llm_api_key")
    @classmethod
    def _no_placeholder_key(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and (
            not value.strip() or value.strip().lower() in PLACEHOLDER_SECRETS
        ):
            raise ValueError("RAILTRIP_LLM_API_KEY is a placeholder; set a real key or unset it")
        return value

    def secrets(self) -> tuple[str, ...]:
        """Every secret value this snapshot holds (masked wherever text leaves the process,
        app/observability/redaction.py): the LLM key, each source's key, the Redis password."""
        values = [self.llm_api_key, *(conf.api_key for conf in self._sources.values())]
        for name in KNOWN_SOURCES:
            values.append(self.source_overrides.get(name, {}).get("api_key"))  # type: ignore[arg-type]
        if self.redis_url:
            try:
                values.append(urlsplit(self.redis_url).password)
            except ValueError:
                pass
        return tuple(value for value in values if isinstance(value, str) and value)

    @property
    def llm_enabled(self) -> bool:
        return bool(self.llm_api_key)

    @property
    def all_sandbox(self) -> bool:
        """True when every enabled source is an in-process sandbox vendor."""
        return all(name in SANDBOX_BASE_URLS for name in self.sources)

    def __eq__(self, other: object) -> bool:
        # The same values (per-source settings included) are the same snapshot, whichever
        # `.env` they were read from.
        if not isinstance(other, Settings):
            return NotImplemented
        return (
            self.model_dump() == other.model_dump()
            and self._sources == other._sources
            and self._faults == other._faults
        )

    __hash__ = None  # type: ignore[assignment]  # holds dicts: never hashable

    @property
    def env_file(self) -> EnvFile:
        """The `.env` this snapshot read (None when reading it was turned off)."""
        return self._env_file

    def source(self, name: str) -> SourceSettings:
        """The settings of one source (environment, then `source_overrides`), validated."""
        if name not in self._sources:  # a source that is not enabled, asked for by name
            overrides = self.source_overrides.get(name, {})
            return SourceSettings.for_source(name, self._env_file, **overrides)
        return self._sources[name]

    def with_defaults(self, **values: object) -> Settings:
        """This snapshot with `values` for the settings nobody set (environment, `.env` or the
        caller): a command that prints tables logs only warnings unless told otherwise."""
        unset = {name: value for name, value in values.items() if name not in self.model_fields_set}
        return self.model_copy(update=unset) if unset else self

    def fault_knobs(self, vendor: str) -> dict[str, float]:
        """The fault knobs of an enabled sandbox vendor (`12306`, `juhe`), as read."""
        return self._faults[vendor].model_dump()

    def unknown_variables(self) -> tuple[tuple[str, str | None], ...]:
        """`RAILTRIP_*` variables (environment or `.env`) no setting reads, each with the
        closest known name, when there is one (a misspelt knob would be ignored silently)."""
        return self._unknown

    def describe(self) -> list[tuple[str, str]]:
        """The effective configuration as (variable, value) rows, secrets hidden: every
        setting, then each enabled source's, then each sandbox vendor's fault knobs."""
        rows = [
            (f"RAILTRIP_{name.upper()}", _shown(name, getattr(self, name)))
            for name in type(self).model_fields
        ]
        for source, conf in self._sources.items():
            prefix = f"RAILTRIP_{env_name(source)}_"
            rows += [
                (prefix + name.upper(), _shown(name, getattr(conf, name)))
                for name in SourceSettings.model_fields
            ]
        for vendor, knobs in self._faults.items():
            prefix = f"RAILTRIP_SANDBOX_{vendor.upper()}_"
            rows += [
                (prefix + name.upper(), _shown(name, value))
                for name, value in knobs.model_dump().items()
                if VENDOR_ONLY_KNOBS.get(name, vendor) == vendor
            ]
        return rows


SECRETS = frozenset({"llm_api_key", "api_key"})
"""Settings whose value is never shown, only whether it is set."""


def _shown(name: str, value: object) -> str:
    """How `describe` prints a value: as the variable would be written, secrets hidden."""
    if value is None:
        return ""
    if name in SECRETS:
        return "(set)" if value else ""
    if name == "api_keys" and isinstance(value, list):
        # name:sha256[:admin]: the names say who may call; the hashes are nobody's business.
        return ",".join(str(entry).split(":")[0] for entry in value)
    if name == "redis_url":
        return re.sub(r"://([^/@:]*):[^/@]*@", r"://\1:***@", str(value))
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    if name == "source_overrides" and isinstance(value, dict):
        hidden = {
            source: {k: "(set)" if k in SECRETS else v for k, v in overrides.items()}
            for source, overrides in value.items()
        }
        return json.dumps(hidden, ensure_ascii=False) if hidden else ""
    return str(value)


def known_variables() -> frozenset[str]:
    """Every `RAILTRIP_*` name a setting reads: the settings, each known source's, each
    sandbox vendor's knobs."""
    names = {f"RAILTRIP_{name.upper()}" for name in Settings.model_fields}
    names |= {
        f"RAILTRIP_{env_name(source)}_{name.upper()}"
        for source in KNOWN_SOURCES
        for name in SourceSettings.model_fields
    }
    names |= {
        f"RAILTRIP_SANDBOX_{vendor.upper()}_{knob.upper()}"
        for vendor in VENDORS
        for knob in FaultSettings.model_fields
        if VENDOR_ONLY_KNOBS.get(knob, vendor) == vendor
    }
    return frozenset(names)


def _unknown_variables(env_file: EnvFile) -> tuple[tuple[str, str | None], ...]:
    given = {name.upper() for name in os.environ}
    if env_file and Path(env_file).is_file():
        given |= {name.upper() for name in dotenv_values(env_file)}
    known = known_variables()
    found = []
    for name in sorted(n for n in given if n.startswith("RAILTRIP_") and n not in known):
        closest = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
        found.append((name, closest[0] if closest else None))
    return tuple(found)


def read_dotenv(enabled: bool) -> None:
    """Whether settings built without an explicit `_env_file` read `.env`.

    The test suite turns it off at start-up: tests build their own settings and must not
    pick up a developer's `.env` (`Settings(_env_file=".env")` still reads one on purpose).
    """
    for cls in (Settings, SourceSettings, FaultSettings):
        cls.model_config["env_file"] = DOTENV if enabled else None
