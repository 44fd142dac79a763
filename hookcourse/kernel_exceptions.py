"""IPython's one custom-exception slot, shared by every part of the course that needs it.

``InteractiveShell.set_custom_exc`` keeps a single tuple of exception types and a single
handler, so each call drops what the previous one set: the browser's NeedsDesktop
paragraph (``browser``) and the NameError line for a check run before its exercise
(``course.kernel_hook``) would undo each other. ``add_handler`` keeps every handler on
the shell and installs one dispatcher over all their types.
"""

from __future__ import annotations

from typing import Any, Final

_HANDLERS: Final = "_hookcourse_exception_handlers"  # the shell's {type: handler}


def add_handler(shell: Any, kind: type[BaseException], handler: Any) -> None:
    """Have IPython ``shell`` call ``handler(shell, etype, value, tb, tb_offset)`` for a
    ``kind`` raised by a cell, beside the handlers added before."""
    handlers = getattr(shell, _HANDLERS, None)
    if not isinstance(handlers, dict):
        handlers = {}
        setattr(shell, _HANDLERS, handlers)
    handlers[kind] = handler
    shell.set_custom_exc(tuple(handlers), _dispatch)


def _dispatch(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None) -> Any:
    for kind, handler in getattr(shell, _HANDLERS, {}).items():
        if isinstance(value, kind):
            return handler(shell, etype, value, tb, tb_offset)
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    return None
