"""The notebooks' interactive labs.

``hookcourse.course.labs.logic`` holds what each lab computes and shows, as plain
functions with no ipywidgets import; ``hookcourse.course.labs.widgets`` only wires
controls to them. Import the widget builders from ``hookcourse.course.labs.widgets``.
"""
