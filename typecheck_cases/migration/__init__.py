"""Cases of the migration lines (`jaxdc.compat`), spread over modules as real projects are."""
