"""Checks that explore the reference machine, and the command line that runs them."""
