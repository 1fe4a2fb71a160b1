"""Loads a script of scripts/ whose file name is no Python module name (torch-profile.py) as a module."""
import importlib.util
import pathlib

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"


def load_script(file_name):
    spec = importlib.util.spec_from_file_location(pathlib.Path(file_name).stem.replace("-", "_"), SCRIPTS / file_name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
