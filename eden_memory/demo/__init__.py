"""The main job: a realistic multi-session conversation run through the whole pipeline."""
