"""Every Chinese sentence the HTTP face says itself (the rest comes from the use cases)."""

RUN_FAILED = "规划服务暂时出错，请稍后再试。"
