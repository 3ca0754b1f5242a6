"""The ``boardsat`` command line: a thin click layer over :mod:`solver`."""
