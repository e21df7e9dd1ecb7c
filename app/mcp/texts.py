"""Every Chinese sentence the MCP face says itself: the server's instructions to a client
model, and the error of a tool that failed unexpectedly."""

INSTRUCTIONS = (
    "中国铁路出行工具（只读）：当前日期、车次余票、中转、经停站、行程规划、下单前实时核验、车站查询。"
    "把“明天”“下周五”等换算成日期前，先调用 get_current_date。"
    "每个回答都带 freshness（realtime/cached/unavailable）和 as_of；缓存数据不会被当作实时数据。"
    "只使用工具返回的车次，不要编造车次、时间或票价。"
)
TOOL_FAILED = "工具暂时不可用，请稍后再试。"
STATIONS_RESOURCE = "全部车站（电报码、站名、所属城市、拼音、首字母），JSON 数组。"
