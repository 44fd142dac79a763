"""Helpers every test folder shares: paths, JavaScript runtimes, the oracle, ports, processes."""
