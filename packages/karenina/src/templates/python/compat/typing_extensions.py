import typing as _typing
from typing import *
__all__ = list(_typing.__all__)
