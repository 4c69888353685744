#!/usr/bin/env python3
"""Independent reference for the ashtom Apple Health fixture: daily sums of
top-level Records only (Correlation children are copies), steps as the
maximum of per-source sums, body mass as the day's latest sample. The day is
the wall-clock date written in startDate (the user has no time-zone row, so
SPEC §1.2 falls back to the instant's own offset). Used to derive the
numbers in AppleHealthReferenceTests.swift."""
import sys, collections, xml.etree.ElementTree as ET
path = sys.argv[1]
UNITS = {'kcal': 1, 'Cal': 1, 'kJ': 1 / 4.184, 'g': 1, 'mg': 1e-3, 'mcg': 1e-6, 'kg': 1, 'lb': 0.45359237}
METRIC = {'HKQuantityTypeIdentifierDietaryEnergyConsumed': 'energy_kcal', 'HKQuantityTypeIdentifierDietaryProtein': 'protein_g',
          'HKQuantityTypeIdentifierDietaryCarbohydrates': 'carbs_g', 'HKQuantityTypeIdentifierDietaryFatTotal': 'fat_g',
          'HKQuantityTypeIdentifierStepCount': 'steps', 'HKQuantityTypeIdentifierBodyMass': 'body_mass_kg'}
sums = collections.defaultdict(float); steps = collections.defaultdict(float); mass = {}; seen = set()
depth = 0; order = 0
for event, element in ET.iterparse(path, events=('start', 'end')):
    if event == 'start':
        depth += 1
        continue
    depth -= 1
    if depth == 1 and element.tag == 'Record' and element.get('type') in METRIC:
        a = element.attrib; metric = METRIC[a['type']]; day = a['startDate'][:10]
        key = (a['type'], a.get('sourceName'), a['startDate'], a.get('endDate'), a['value'], a['unit'])
        order += 1
        if key in seen: continue
        seen.add(key)
        if metric == 'steps':
            steps[(day, a.get('sourceName'))] += float(a['value'])
        elif metric == 'body_mass_kg':
            v = float(a['value']) * UNITS[a['unit']]
            cand = (a['startDate'], a.get('endDate'), order, v)
            if day not in mass or cand[:3] > mass[day][:3]: mass[day] = cand
        else:
            sums[(day, metric)] += float(a['value']) * UNITS[a['unit']]
    if depth <= 1: element.clear()
days = sorted({d for d, _ in sums} & {d for d, _ in steps} )
for day in days:
    step = max(v for (d, s), v in steps.items() if d == day)
    row = [sums.get((day, m)) for m in ('energy_kcal', 'protein_g', 'carbs_g', 'fat_g')]
    print(day, row, step, mass.get(day, (None, None, None, None))[3])
