"""``sy-tools serve``: the live web table of one game, Mr. X's private page on his phone.

* :mod:`~sy_tools.web.table`: what each page may see (:class:`~sy_tools.web.table.Table`: the
  table's view from the public record alone, Mr. X's own) and the moves it may make.
* :mod:`~sy_tools.web.app`: the Starlette app (:func:`~sy_tools.web.app.create_app`): the
  endpoints, the server-sent events, the guards (Host, Origin, token, body size).
* :mod:`~sy_tools.web.server`: Mr. X's token, the listening socket, uvicorn.
* ``static/``: the pages' own scripts and styles (plain JavaScript modules and SVG).

Importing this package loads nothing: Starlette and uvicorn (the ``[web]`` extra) are loaded by
the modules that need them.
"""
