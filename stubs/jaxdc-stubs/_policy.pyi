__all__ = ["MigrationWarning"]

class MigrationWarning(UserWarning):
    """jaxdc accepted, on the migration path (`jaxdc.compat`), a class or value that
    `jaxdc.pytree_dataclass` rejects; the message is that error, with its fix."""
