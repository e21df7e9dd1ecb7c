"""Every Chinese sentence the use cases say (templates with named fields; never a model's)."""

PRECHECK_NO_LIVE_ANSWER = "暂时无法实时核验余票，请稍后再试。"
PRECHECK_INCOMPLETE = (
    "数据源 {sources} 本次未能返回结果，无法确认 {train} 次列车是否存在，请稍后再试。"
)
PRECHECK_NOT_FOUND = "{date} {origin}→{destination} 没有 {train} 次列车。"
PRECHECK_NOT_ON_SALE = "{train} {seat}尚未开售{opens}。"
PRECHECK_OPENS = "（{at:%m月%d日%H:%M}起售）"
PRECHECK_SOLD_OUT = "{train} {seat}已无足够余票。"
PRECHECK_PRICE_CHANGED = "{train} {seat}票价已由 {expected:g} 元变为 {price:g} 元。"
ADULT_FARES_ONLY = "部分车次的价格为成人票价（聚合数据只报成人票价），学生票价以 12306 购票时为准。"
