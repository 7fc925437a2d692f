"""`comet serve`: the memory service speaking comet.provider/v1 over HTTP."""
