import DayfoldCore
print("dayfold")
