"""repro"""
