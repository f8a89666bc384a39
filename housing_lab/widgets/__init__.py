"""Jupyter widgets for the two games: the only package that imports anywidget, ipywidgets and
bqplot. Each widget is a thin view over an engine and decides no rule itself."""

from housing_lab.widgets.lab.board import NorthBerkeleyBoard
from housing_lab.widgets.lab.charts import HomesChart, OutcomeChart
from housing_lab.widgets.lab.coach_panel import CoachPanel
from housing_lab.widgets.lab.lab import NorthBerkeleyLab
from housing_lab.widgets.lab.policies import PolicyPanel
from housing_lab.widgets.lab.scoreboard import Scoreboard
from housing_lab.widgets.lessons.after import AfterPrediction, after_prediction
from housing_lab.widgets.lessons.charts import INCOME_COLOURS, bar_chart, heat_table
from housing_lab.widgets.lessons.coalition import CoalitionExplorer
from housing_lab.widgets.lessons.predict import PredictThenRun
from housing_lab.widgets.lessons.progress import ProgressBar
from housing_lab.widgets.lessons.quiz import ChoiceQuestion, reveal
from housing_lab.widgets.lessons.state_fill import StateFillExplorer
from housing_lab.widgets.lessons.tables import LessonTable, lesson_table
from housing_lab.widgets.robustness import robustness_heat_table
from housing_lab.widgets.streetcar.lab import StreetcarLab
from housing_lab.widgets.table.table import GameTable

__all__ = [
    "INCOME_COLOURS",
    "AfterPrediction",
    "ChoiceQuestion",
    "CoachPanel",
    "CoalitionExplorer",
    "GameTable",
    "HomesChart",
    "LessonTable",
    "NorthBerkeleyBoard",
    "NorthBerkeleyLab",
    "OutcomeChart",
    "PolicyPanel",
    "PredictThenRun",
    "ProgressBar",
    "Scoreboard",
    "StateFillExplorer",
    "StreetcarLab",
    "after_prediction",
    "bar_chart",
    "heat_table",
    "lesson_table",
    "reveal",
    "robustness_heat_table",
]
