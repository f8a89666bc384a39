"""housing_lab: two housing-policy board games as rules engines, widgets and lessons.

The engines (`housing_lab.north_berkeley`, `housing_lab.streetcar`) are pure Python and import
no widget library; `housing_lab.widgets` holds everything that draws.
"""

__version__ = "0.1.0"
