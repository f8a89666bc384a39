"""Only to install the Jupyter server extension's config in editable installs too.

Everything else is in pyproject.toml. setuptools' editable wheels skip `data-files` (its
editable_wheel asks the distribution for `has_data`, which is spelled `has_data_files`), so
`pip install -e .` would leave the room page's server extension disabled.
"""

from setuptools import setup
from setuptools.command.editable_wheel import editable_wheel


class EditableWithData(editable_wheel):
    """An editable wheel that also carries the data files (etc/jupyter/...)."""

    def _run_install(self, category: str) -> None:
        if category == "data" and self.distribution.has_data_files():
            self.run_command("install_data")
            return
        super()._run_install(category)


setup(cmdclass={"editable_wheel": EditableWithData})
