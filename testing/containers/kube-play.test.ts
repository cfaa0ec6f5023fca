import { containersConfWithInfraImage } from './kube-play';

describe("the containers.conf kube play is given: the machine's, with an infra image", () => {
  const image = 'localhost/slots-standin/pod-infra:1';

  it("sets infra_image in the machine's [engine] table, keeping its settings", () => {
    const machine = '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\n';
    expect(containersConfWithInfraImage(machine, image)).toBe(
      '[containers]\ndefault_ulimits = []\n\n[engine]\ninfra_image = "localhost/slots-standin/pod-infra:1"\n' +
        'cgroup_manager = "cgroupfs"\n',
    );
  });

  it('adds an [engine] table when the machine has none, and writes the setting once', () => {
    expect(containersConfWithInfraImage('[containers]\ndefault_ulimits = []\n', image)).toBe(
      '[containers]\ndefault_ulimits = []\n\n[engine]\ninfra_image = "localhost/slots-standin/pod-infra:1"\n',
    );
    expect(containersConfWithInfraImage('', image)).toBe(
      '\n\n[engine]\ninfra_image = "localhost/slots-standin/pod-infra:1"\n',
    );
    const twice = containersConfWithInfraImage('[engine]\n  infra_image = "k8s.gcr.io/pause:3.5"\n', image);
    expect(twice.match(/infra_image/g)).toHaveLength(1);
    expect(twice).toContain(`infra_image = "${image}"`);
  });

  it('finds the [engine] table, not one below it such as [engine.runtimes]', () => {
    const machine = '[engine.runtimes]\nrunc = ["/usr/bin/runc"]\n\n[engine]\nevents_logger = "file"\n';
    expect(containersConfWithInfraImage(machine, image)).toBe(
      '[engine.runtimes]\nrunc = ["/usr/bin/runc"]\n\n[engine]\ninfra_image = "localhost/slots-standin/pod-infra:1"\n' +
        'events_logger = "file"\n',
    );
  });
});
