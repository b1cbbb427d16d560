"""Python wrapper around the Zoom.us REST API"""

from __future__ import (
    absolute_import,
    unicode_literals)

from zoomus.client import ZoomClient

__version__ = '0.1.7'
