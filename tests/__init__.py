"""The test suite as one package, so that tests/packaging or tests/service never shadow the
`packaging` distribution or the `service` package on sys.path."""
