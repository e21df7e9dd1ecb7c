"""Refusal messages of the access layer (Chinese templates; never the client's input)."""

UNAUTHORIZED = "缺少有效的 API 密钥：请在 Authorization: Bearer 或 X-API-Key 请求头中提供。"
AMBIGUOUS_KEY = "请求携带了两个不同的 API 密钥：Authorization 与 X-API-Key 只能提供同一个。"
AUTH_THROTTLED = "无效密钥尝试过多，请在 {retry_after} 秒后重试。"
ADMIN_ONLY = "该接口仅限管理员密钥调用。"
RATE_QUOTA = "请求过于频繁，请在 {retry_after} 秒后重试。"
REFRESH_QUOTA = (
    "强制刷新（refresh=true）过于频繁，请在 {retry_after} 秒后重试，或不带 refresh 查询。"
)
LLM_DAILY_BUDGET_SPENT = "今日智能解析额度已用完，本次由离线规则解析，复杂说法可能需要补充信息。"
LLM_CIRCUIT_OPEN = "智能解析服务暂时不可用，本次由离线规则解析。"
