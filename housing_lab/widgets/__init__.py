"""Jupyter widgets for the two games: the only package that imports anywidget, ipywidgets and
bqplot. Each widget is a thin view over an engine and decides no rule itself."""

from housing_lab.widgets.game_table import GameTable
from housing_lab.widgets.nb_board import NorthBerkeleyBoard
from housing_lab.widgets.nb_charts import HomesChart, OutcomeChart
from housing_lab.widgets.nb_lab import NorthBerkeleyLab
from housing_lab.widgets.nb_policies import PolicyPanel
from housing_lab.widgets.nb_scoreboard import Scoreboard
from housing_lab.widgets.streetcar_lab import StreetcarLab

__all__ = [
    "GameTable",
    "HomesChart",
    "NorthBerkeleyBoard",
    "NorthBerkeleyLab",
    "OutcomeChart",
    "PolicyPanel",
    "Scoreboard",
    "StreetcarLab",
]
