"""The rules and the words jaxdc's runtime and its mypy plugin share. Not public API.

The runtime (``jaxdc``, which imports jax) and the plugin (``jaxdc_mypy``, which must never
import jax) cannot import each other, yet must decide the same things and say them in the
same words. Both import this package instead, and stay thin adapters:

- ``kinds``: whether a field is data, static or left out of the pytree, from literal facts;
- ``typedesc``: a small, neutral description of a type, which each layer builds from what it
  has (runtime type objects, mypy ``Type``s);
- ``hashability`` and ``arraylike``: the verdicts over that description;
- ``messages``: every message template and "Fix:" sentence, and how classes and types are
  shown in them;
- ``names``: the fully qualified names the rules and the plugin recognise.

Pure Python: it imports neither jax nor mypy nor anything from ``jaxdc``/``jaxdc_mypy``
(a test enforces it), and it is small, because ``import jaxdc`` and every mypy run load it.
"""

__version__ = "0.1.0"
