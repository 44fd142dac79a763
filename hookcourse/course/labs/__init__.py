"""The notebooks' interactive labs and check questions.

``hookcourse.course.labs.logic`` holds what each lab computes and shows, and
``hookcourse.course.labs.question`` what a check question tells the learner, as
plain functions with no ipywidgets import; ``hookcourse.course.labs.widgets`` and
``hookcourse.course.labs.quiz`` only wire controls to them. Notebooks import the lab
builders and ``quiz`` through ``hookcourse.course.notebook``.
"""
