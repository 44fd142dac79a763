"""hookcourse on a JupyterHub: what every user's server needs for the course.

Loaded as it is by The Littlest JupyterHub (workshop/install.sh copies it into
/opt/tljh/config/jupyterhub_config.d/) and by tests/workshop/test_hub.py; any hub can
`load_subconfig` it. The course itself is installed by workshop/install.sh into the
Python the users' servers run, with the course's server extension enabled there: on
its first start, each user's server copies the course into ~/my-notebooks (the
learner's working copy, where their check runs are recorded in progress.jsonl).
"""

c = get_config()  # noqa: F821 (JupyterHub's config loader provides get_config)

# Open the course's first notebook in JupyterLab, in the learner's own copy.
c.Spawner.default_url = "/lab/tree/my-notebooks/00_hook_contract.ipynb"
# The labs and checks run real hook processes; a minute is ample for a server to start.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 60
