"""Small personal stores of invented people, with labelled questions (issue 41, item 2).

``python -m benchmarks.personal_stores``; what the set holds and how it is split: README.md.
"""
