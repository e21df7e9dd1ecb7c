"""Every Chinese sentence the HTTP face says itself (the rest comes from the use cases)."""

RUN_FAILED = "规划服务暂时出错，请稍后再试。"
STREAMS_FULL = "当前流式规划连接已满，请在 {retry_after} 秒后重试，或改用 /v1/plan。"
