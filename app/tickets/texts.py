"""Traveller-facing warnings of the query service (Chinese templates)."""

SOURCE_FAILED = "数据源 {name} 本次未能返回结果（{status}），以下结果来自其他数据源。"
SOURCE_OVERLOADED = (
    "数据源 {name} 的查询在本服务排队已满（服务繁忙，并非数据源故障），以下结果来自其他数据源。"
)
SERVICE_OVERLOADED = (
    "服务当前繁忙，本次查询未能排队（并非数据源故障），请在 {retry_after} 秒后重试。"
)
STALE_COPY = "所有数据源暂时无法访问，以下为 {age} 前缓存的余票信息，可能已经变化，请以购票时为准。"
CACHED_COPY = "以下为 {age} 前查询的余票信息（缓存），余票变化较快，购票前会重新核验。"
UNAVAILABLE = (
    "暂时无法获取 {origin}→{destination} {date} 的余票信息，所有数据源均无响应，请稍后再试。"
)


def age_text(age_s: float) -> str:
    """A human age: 45秒 / 3分钟 / 1小时."""
    seconds = int(age_s)
    if seconds < 60:
        return f"{seconds}秒"
    if seconds < 3600:
        return f"{seconds // 60}分钟"
    return f"{seconds // 3600}小时"


def cached_copy(age_s: float) -> str:
    """The warning every cache hit carries: its age in words (the one text a hit's age changes)."""
    return CACHED_COPY.format(age=age_text(age_s))


STOPS_CACHED = "以下为 {age} 前查询的经停信息（缓存）。"
STOPS_UNAVAILABLE = "暂时无法获取 {train} 次列车 {date} 的经停信息，请稍后再试。"
TRANSFERS_CACHED = "以下为 {age} 前查询的中转方案（缓存），余票变化较快，购票前会重新核验。"
TRANSFERS_UNAVAILABLE = "暂时无法获取 {origin}→{destination} {date} 的官方中转方案。"
