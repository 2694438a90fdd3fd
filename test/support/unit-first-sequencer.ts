import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * vitest's order (its cache's slowest first, or the largest file), with the unit files first: they need no local stack,
 * so they run while the global setup starts it, instead of after the integration files (vitest orders projects by
 * name, and `integration` comes before `unit`), whose first files would otherwise only wait for the stack.
 */
export default class UnitFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(isUnit), ...sorted.filter((file) => !isUnit(file))];
  }
}

const isUnit = (file: TestSpecification) => file.project.name === 'unit';
