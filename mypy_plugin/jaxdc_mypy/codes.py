"""The plugin's error codes, so users can write ``# type: ignore[jaxdc-static]``."""

from mypy.errorcodes import ErrorCode

STATIC = ErrorCode(
    "jaxdc-static", "Static pytree field or jit parameter of unhashable type", "jaxdc"
)
DATA = ErrorCode("jaxdc-data", "Pytree data field whose type is not array-like", "jaxdc")
SHAPE = ErrorCode("jaxdc-shape", "jaxtyping shape string that is never valid", "jaxdc")
MUTATION = ErrorCode(
    "jaxdc-mutation", "A field assigned where the runtime forbids the assignment", "jaxdc"
)
JIT = ErrorCode(
    "jaxdc-jit", "A Static[...] parameter under jax.jit, which does not make it static", "jaxdc"
)
# Enabled as a code so `# type: ignore[jaxdc-any]` works; whether it is reported at all is
# the `check_any` setting (mypy rejects plugin codes in enable_error_code: it validates
# them before plugins are loaded).
ANY = ErrorCode("jaxdc-any", "Pytree data field typed Any (check_any = true)", "jaxdc")
DECORATOR = ErrorCode(
    "jaxdc-decorator",
    "A jaxdc class also decorated with @dataclasses.dataclass, or declared frozen=False",
    "jaxdc",
)
CONVERTER = ErrorCode(
    "jaxdc-converter",
    "A field converter whose return type the field's type does not accept",
    "jaxdc",
)
# Reported only with `warn_float_statics = true`, like `jaxdc-any` with `check_any`.
FLOAT_STATIC = ErrorCode(
    "jaxdc-float-static",
    "Static field or jit parameter typed float or complex (warn_float_statics = true)",
    "jaxdc",
)
DESCRIPTOR = ErrorCode(
    "jaxdc-descriptor",
    "A field whose default is a data descriptor, whose __set__ every unflatten would run",
    "jaxdc",
)
