"""``geoik view``: a local web page that drives geoik's solvers live over a WebSocket.

:mod:`geoik.viewer.server` (Starlette, the ``viewer`` extra) serves the page in ``static/`` and
the WebSocket API; :mod:`geoik.viewer.protocol` validates messages, :mod:`geoik.viewer.handlers`
answers the 2-D panel and :mod:`geoik.viewer.scenes` the 3-D scenes. Importing this package
needs nothing beyond geoik itself.

May import every layer of the library (it is an interface, as :mod:`geoik.commands` is); nothing
in the library imports it.
"""
