"""mypy types as the shared rules see them (``_jaxdc_rules.typedesc``).

The verdicts and the way types read in messages are the shared package's; this module only
reads what mypy knows about a type: the classes of its MRO and what each one's body says
about hashing (stubs are trusted for ``__hash__`` but not for ``__eq__``, which they list
on classes that hash fine), dataclass options (``frozen`` from mypy's own metadata, ``eq``
and ``unsafe_hash`` from ours, see ``dataclass_options``), NamedTuple and dataclass fields,
NewTypes, TypedDicts, whether a class is a pytree (jaxdc's, or marked by another library's
decorator).

A type met again is described by the same node, and fields are described only when a rule
asks for them, so recursive types (``Params = Union[Array, list["Params"]]``, a
NamedTuple holding itself) never make the walk recurse forever.
"""

from __future__ import annotations

from _jaxdc_rules import typedesc as td
from _jaxdc_rules.messages import class_display, qualname_in
from mypy.nodes import AssignmentStmt, MypyFile, NameExpr, TypeInfo, Var
from mypy.options import Options
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarType,
    UninhabitedType,
    UnionType,
    get_proper_type,
)

from . import compat, names
from .dataclass_options import hashed_fields, options_of


def class_name(info: TypeInfo) -> str:
    """A class as messages show it (``Outer.Inner``), the runtime's way."""
    return class_display(qualname_in(info.fullname, info.module_name))


class Describer:
    """Describes the types of one check; meeting a type again returns its node."""

    def __init__(self, modules: dict[str, MypyFile], options: Options) -> None:
        self._modules = modules
        self._options = options
        self._memo: dict[object, td.TypeDesc] = {}

    def describe(self, typ: Type) -> td.TypeDesc:
        """The description of ``typ``: made once per run for types described alike (see
        ``memo_key``), looked up by the type object itself once it has been met."""
        try:
            desc = self._memo.get(typ)
        except TypeError:  # a type mypy cannot hash (never a recursive one): not memoised
            desc = td.TypeDesc()
            self._fill(desc, get_proper_type(typ))
            return desc
        if desc is None:
            desc = self._memo[typ] = self._shared_description(typ)
        return desc

    def _shared_description(self, typ: Type) -> td.TypeDesc:
        key = memo_key(typ)
        desc = self._memo.get(key)
        if desc is None:
            desc = self._memo[key] = td.TypeDesc()
            if isinstance(typ, TypeAliasType) and typ.alias is not None and typ.is_recursive:
                desc.alias = typ.alias.name  # shown by name where it refers to itself
            self._fill(desc, get_proper_type(typ))
        return desc

    def _fill(self, desc: td.TypeDesc, typ: ProperType) -> None:
        if isinstance(typ, Instance):
            self._fill_instance(desc, typ)
        elif isinstance(typ, AnyType):
            desc.form = td.ERROR if typ.type_of_any == TypeOfAny.from_error else td.ANY
        elif isinstance(typ, (NoneType, UninhabitedType)):
            desc.form = td.NONE
        elif isinstance(typ, UnionType):
            desc.form, desc.items = td.UNION, tuple(self.describe(t) for t in typ.items)
        elif isinstance(typ, TupleType):
            fallback = typ.partial_fallback
            if fallback.type.fullname == "builtins.tuple":
                desc.form, desc.items = td.TUPLE, tuple(self.describe(t) for t in typ.items)
            else:  # a NamedTuple: a class with fields
                self._fill_class(desc, fallback, typ.items)
        elif isinstance(typ, TypedDictType):
            desc.form, desc.name = td.TYPEDDICT, class_name(typ.fallback.type)
            desc.items = tuple(self.describe(t) for t in typ.items.values())
        elif isinstance(typ, TypeVarType):
            desc.form, desc.name = td.TYPEVAR, typ.name
            bound = get_proper_type(typ.upper_bound)
            if typ.values:  # TypeVar("T", int, str): one of its constraints
                desc.items = tuple(self.describe(value) for value in typ.values)
            elif not (isinstance(bound, Instance) and bound.type.fullname == "builtins.object"):
                desc.items = (self.describe(bound),)
        elif isinstance(typ, LiteralType):
            desc.form, desc.text = td.LITERAL, self._text(typ)
            desc.items = (self.describe(typ.fallback),)
        elif isinstance(typ, (CallableType, Overloaded)):
            desc.form, desc.text = td.CALLABLE, self._text(typ)
        elif isinstance(typ, TypeType):
            desc.form, desc.text = td.CLASS_OBJECT, self._text(typ)
        else:  # ParamSpec, unpacked tuples, ...: not judged
            desc.form, desc.text = td.ANY, self._text(typ)

    def _fill_instance(self, desc: td.TypeDesc, typ: Instance) -> None:
        info = typ.type
        if info.fullname == "builtins.tuple":  # tuple[X, ...]
            desc.form, desc.variadic = td.TUPLE, True
            item = typ.args[0] if typ.args else AnyType(TypeOfAny.implementation_artifact)
            desc.items = (self.describe(item),)
        elif info.is_newtype:
            desc.form, desc.name, desc.module = td.INSTANCE, class_name(info), info.module_name
            desc.bases = (td.Base(info.fullname, qualname_in(info.fullname, info.module_name)),)
            desc.supertype = self.describe(info.tuple_type or info.bases[0])
        elif info.tuple_type is not None and info.is_named_tuple:
            self._fill_class(desc, typ, info.tuple_type.items)
        else:
            self._fill_class(desc, typ, None)

    def _fill_class(
        self, desc: td.TypeDesc, typ: Instance, namedtuple_items: list[Type] | None
    ) -> None:
        info = typ.type
        desc.form, desc.name, desc.module = td.INSTANCE, class_name(info), info.module_name
        if not _omitted(typ):  # `array` reads as written, not array[Any]
            desc.items = tuple(self.describe(arg) for arg in typ.args)
        desc.bases = tuple(
            self._base(base, typ, namedtuple_items)
            for base in info.mro
            if base.fullname != "builtins.object"
        )
        desc.protocol = info.is_protocol
        desc.pytree = any(
            names.METADATA_KEY in base.metadata or names.PYTREE_METADATA_KEY in base.metadata
            for base in info.mro
        )

    def _base(self, base: TypeInfo, typ: Instance, namedtuple_items: list[Type] | None) -> td.Base:
        dataclass = base.metadata.get("dataclass")
        options = None
        fields = None
        if dataclass is not None:
            eq, unsafe_hash = options_of(base)
            options = td.DataclassOptions(eq, bool(dataclass.get("frozen")), unsafe_hash)
            fields = lambda: self._dataclass_fields(base, typ)  # noqa: E731
        elif base.is_named_tuple:
            fields = lambda: self._namedtuple_fields(base, typ, namedtuple_items)  # noqa: E731
        return td.Base(
            base.fullname,
            qualname_in(base.fullname, base.module_name),
            hash=_own_hash(base),
            eq="__eq__" in base.names and not self._is_stub(base),
            dataclass=options,
            namedtuple=base.is_named_tuple,
            fields=fields,
        )

    def _dataclass_fields(self, base: TypeInfo, typ: Instance) -> list[td.Field]:
        hashed = hashed_fields(base)
        found = []
        for name, _ in compat.dataclass_fields(base):
            field_type = compat.member_type(typ, name)
            if field_type is not None:
                found.append(td.Field(name, self.describe(field_type), hashed.get(name, True)))
        return found

    def _namedtuple_fields(
        self, base: TypeInfo, typ: Instance, items: list[Type] | None
    ) -> list[td.Field]:
        field_names = base.metadata.get("namedtuple", {}).get("fields", [])
        if items is None or base is not typ.type:
            items = base.tuple_type.items if base.tuple_type is not None else []
        return [td.Field(n, self.describe(t)) for n, t in zip(field_names, items, strict=False)]

    def _is_stub(self, info: TypeInfo) -> bool:
        module = self._modules.get(info.module_name)
        return module is None or module.is_stub

    def _text(self, typ: Type) -> str:
        return compat.format_type(typ, self._options)


def memo_key(typ: Type) -> object:
    """The same key for types that are read alike: a use of a non-recursive alias is what
    it stands for (``Name: TypeAlias = Static[str]`` in every module is ``str``; a recursive
    alias keeps its name, which descriptions show where it refers to itself), and of a type
    variable only the name and bounds are read (each generic class has its own ``T``)."""
    original = typ
    if isinstance(typ, TypeAliasType) and typ.alias is not None and not typ.is_recursive:
        typ = get_proper_type(typ)
    key: object = typ
    if isinstance(typ, TypeVarType):
        key = (TypeVarType, typ.name, typ.upper_bound, tuple(typ.values))
    try:
        hash(key)
    except TypeError:  # what an alias stands for may hold a type mypy cannot hash
        return original
    return key


def _omitted(typ: Instance) -> bool:
    """Whether mypy filled in every type argument because the annotation left them out: with
    Any, or, for type variables with defaults, with those (`slice` is `slice[Any, Any, Any]`)."""
    has_defaults = any(
        getattr(tv, "has_default", lambda: False)() for tv in typ.type.defn.type_vars
    )
    kinds = [getattr(get_proper_type(arg), "type_of_any", None) for arg in typ.args]
    if has_defaults:
        return all(kind is not None for kind in kinds)
    return bool(kinds) and all(kind == TypeOfAny.from_omitted_generics for kind in kinds)


def _own_hash(info: TypeInfo) -> str:
    """What the class's own body says about ``__hash__``."""
    sym = info.names.get("__hash__")
    if sym is None or sym.node is None:
        return td.HASH_ABSENT
    if isinstance(sym.node, Var) and isinstance(get_proper_type(sym.node.type), NoneType):
        return td.HASH_NONE  # `__hash__ = None`, or `__hash__: ClassVar[None]` in a stub
    if isinstance(sym.node, Var) and sym.node.type is None and _assigns_none(info):
        return td.HASH_NONE  # mypy 1.11 infers `__hash__ = None` only after the plugin ran
    return td.HASH_DEFINED


def _assigns_none(info: TypeInfo) -> bool:
    """Whether the class body says `__hash__ = None` (read where mypy has not yet inferred
    the Var's type; a class loaded from the cache has its inferred type instead)."""
    return any(
        isinstance(stmt, AssignmentStmt)
        and any(isinstance(lv, NameExpr) and lv.name == "__hash__" for lv in stmt.lvalues)
        and isinstance(stmt.rvalue, NameExpr)
        and stmt.rvalue.fullname == "builtins.None"
        for stmt in info.defn.defs.body
    )
