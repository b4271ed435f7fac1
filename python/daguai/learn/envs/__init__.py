"""Environments for other people's learners, apart from this project's trainer (``daguai.learn``).

``batch_env`` (:class:`daguai.learn.BatchEnv`, n games stepped in C++), ``gym_env`` and
``gym_vector`` (Gymnasium, ids ``daguai/DaGuai-v0`` and ``daguai/DaGuaiSelfPlay-v0``,
registered by ``_gym_ids`` on ``import daguai``), ``pettingzoo_env`` (PettingZoo AEC, also
``daguai.env``) and ``openspiel_game`` (OpenSpiel's ``"python_daguai"``). Each imports its
library only when it is imported itself; the observations and masks they share are
``daguai.learn.tensors``.
"""
