"""The maintainer's tools, run on copies of the kit."""
