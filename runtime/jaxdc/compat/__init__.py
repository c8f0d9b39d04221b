"""Drop-in modules for code written against other pytree-dataclass libraries.

`from flax import struct` becomes `from jaxdc.compat import flax_struct as struct`; the
rest of the code (decorators, `struct.field(pytree_node=False)`, `obj.replace(...)`) stays
as it is. Nothing here imports the library it stands in for.
"""
