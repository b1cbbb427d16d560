"""Zoom.us REST API Python Client Components"""

from __future__ import absolute_import

from . import (
    meeting,
    recording,
    report,
    user,
    webinar)

__author__ = "Patrick R. Schmid"
__email__ = "prschmid@act.md"
