"""tgneo's version, in a module of its own: every module that names it imports this, not the package, so the
package's lazy ``tgneo.record`` never closes an import cycle."""

__version__ = "0.1.0"
