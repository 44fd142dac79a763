"""The notebooks' interactive labs.

``hookcourse.labs.logic`` holds what each lab computes and shows, as plain
functions with no ipywidgets import; ``hookcourse.labs.widgets`` only wires
controls to them. Import the widget builders from ``hookcourse.labs.widgets``.
"""
