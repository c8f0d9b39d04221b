"""Cases spread over modules, as a package."""
