"""Ports: what the application needs from the outside world, named by role.

Import each port from its own module (``cleveragents.application.ports.token_counter``). This
package imports none of them: an adapter that implements one port (the tokenizer) must not load
the others' domain models (pydantic) with it.
"""
