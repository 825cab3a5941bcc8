"""The `agents` command line: a driving adapter above the container.

Modules here import what they use at the top. A command imports inside its function only what
would cost a command that does not use it more than some 20 ms of CPU, measured: `agents
--help` imports every noun's module (for their help texts) and `agents tokens count` only its
own. Each such import says what it costs (pydantic models, application services, the MCP and
proxy web stacks, Rich for `tokens count`); the container builds its heavy adapters on first
use (`container/factories.py`). `benchmarks/cli_startup.py` measures both commands.
"""
