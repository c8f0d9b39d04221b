class Config:
    explain_retraces: bool
    retrace_warning_after: int | None
    def __init__(
        self, explain_retraces: bool = False, retrace_warning_after: int | None = 8
    ) -> None: ...

config: Config
