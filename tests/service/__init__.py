"""Tests of the agent service, its HTTP API, the command line and the demo."""
