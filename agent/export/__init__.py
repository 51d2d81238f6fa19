"""Export: archived trajectories as a training dataset.

* :mod:`.build`: the export from runs; :mod:`.formats` the row formats (OpenAI, ShareGPT, Parquet);
  :mod:`.dataset_card` the dataset's card.
"""
